# First: export BOT_CONVERSATION_TOKEN=... (mock: any value; sandbox: sandbox-token)
curl 'http://127.0.0.1:4010/api/v1/runtime/simple/external/events' \
  --header "X-Token: $BOT_CONVERSATION_TOKEN" \
  --header 'Content-Type: application/json' \
  --data '{
    "conversationId": "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
    "externalEventId": "order-status-changed",
    "externalEventPayload": { "orderNumber": "10482" }
  }'
