import { policyPlaceholder } from "./csp.ts";

/**
 * `404.html`, the page static hosts answer unknown addresses with, at whatever depth: it cannot name
 * the site's files relatively, so it holds no viewer. Its script finds where the site starts in the
 * address by the viewer's routes it knows (`/some/sub/path/section/errors` is the route
 * `/section/errors` under `/some/sub/path/`, and an operation's `/conversations/searchconversations`
 * falls under its tag `/conversations`) and goes to that route, `<base>/#/section/errors`. Any other
 * address is not found. Needs `applyContentSecurityPolicy`.
 */
export function notFoundPage(routes: readonly string[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta http-equiv="Content-Security-Policy" content="${policyPlaceholder}" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <link rel="icon" href="data:," />
  <title>Not found: Bot Conversation Service API reference</title>
  <script>
    (function () {
      var routes = ${JSON.stringify(routes)};
      var segments = location.pathname.split("/").filter(function (segment) { return segment !== ""; });
      // The first split of the address whose end is a route (or lies under one) tells the base apart.
      function split(isRoute) {
        for (var index = 0; index < segments.length; index++) {
          var route = "/" + segments.slice(index).join("/");
          if (isRoute(route)) return "/" + segments.slice(0, index).map(function (segment) { return segment + "/"; }).join("") + "#" + route;
        }
      }
      var target = split(function (route) { return routes.indexOf(route) >= 0; }) || split(function (route) { return routes.some(function (known) { return route.indexOf(known + "/") === 0; }); });
      if (target) location.replace(target);
    })();
  </script>
</head>
<body>
  <main>
    <h1>Page not found</h1>
    <p>No page of the Bot Conversation Service API reference has this address.</p>
  </main>
</body>
</html>
`;
}
