# First: export BOT_CONVERSATION_TOKEN=... (mock: any value; sandbox: sandbox-token)
curl 'http://127.0.0.1:4010/api/v1/runtime/simple/external/events/5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c' \
  --header "X-Token: $BOT_CONVERSATION_TOKEN"
