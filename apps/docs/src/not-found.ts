import { policyPlaceholder } from "./csp.ts";

/** The name of the page's `<meta>` whose content is the site's base path (`/repo/`): the build's (`DOCS_BASE_PATH`), or the server's that answers it. */
export const referenceBaseMeta = "reference-base";

/** The page with its base path filled in (`withReferenceBase(page, "/repo/")`), over whatever it held: its links start there. */
export function withReferenceBase(page: string, base: string): string {
  return page.replace(
    new RegExp(`<meta name="${referenceBaseMeta}" content="[^"]*" />`),
    `<meta name="${referenceBaseMeta}" content="${base.replace(/[&<>"']/g, "")}" />`,
  );
}

/**
 * `404.html`, the page static hosts answer unknown addresses with, at whatever depth: it cannot name
 * the site's files relatively, so it holds no viewer. Its script finds where the site starts in the
 * address by the viewer's routes it knows (`/some/sub/path/section/errors` is the route
 * `/section/errors` under `/some/sub/path/`, and an operation's `/conversations/searchconversations`
 * falls under its tag `/conversations`) and goes to that route, `<base>/#/section/errors`. Any other
 * address is not found: the page, in the reference's own look (its font, colours and sidebar), links
 * to the reference's home page and to its search (`<base>/?search`, which opens the viewer's search
 * box), from the base path written into it (`withReferenceBase`: the build's `DOCS_BASE_PATH`, or the
 * repository's server, which serves the site at `/`). It makes no request of its own. Needs
 * `applyContentSecurityPolicy`.
 */
export function notFoundPage(routes: readonly string[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta http-equiv="Content-Security-Policy" content="${policyPlaceholder}" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <link rel="icon" href="data:," />
  <meta name="${referenceBaseMeta}" content="" />
  <title>Not found: Bot Conversation Service API reference</title>
  <style>
    /* The viewer's look (template.hbs and Redoc's light theme): its font, text and link colours, its sidebar. */
    body {
      margin: 0;
      font-family: system-ui, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Oxygen, Ubuntu, Cantarell, "Fira Sans", "Droid Sans", "Helvetica Neue", Arial, sans-serif;
      font-size: 14px;
      line-height: 20px;
      color: #1a1c21;
      background: #ffffff;
    }
    .layout {
      display: flex;
      min-height: 100vh;
    }
    .sidebar {
      flex: 0 0 285px;
      box-sizing: border-box;
      padding: 16px;
      border-right: 1px solid #e4e5e7;
      background: #ffffff;
    }
    .sidebar .site {
      display: block;
      padding: 6px 20px;
      border-radius: 6px;
      font-weight: 400;
      color: #1a1c21;
      background: #ebecef;
      text-decoration: none;
    }
    main {
      flex: 1 1 auto;
      padding: 40px 64px;
      max-width: 720px;
    }
    h1 {
      margin: 0 0 16px;
      font-size: 36px;
      line-height: 44px;
      font-weight: 600;
    }
    p {
      margin: 0 0 16px;
      font-size: 16px;
      line-height: 24px;
    }
    .links {
      display: flex;
      flex-wrap: wrap;
      gap: 12px;
      margin: 24px 0 0;
      padding: 0;
      list-style: none;
    }
    .links a {
      display: inline-block;
      padding: 8px 16px;
      border: 1px solid #c4c6d1;
      border-radius: 6px;
      color: #1a5fd0;
      font-weight: 600;
      text-decoration: none;
    }
    .links a:hover,
    .links a:focus {
      border-color: #1a5fd0;
      text-decoration: underline;
    }
    kbd {
      font-family: inherit;
      padding: 0 4px;
      border: 1px solid #c4c6d1;
      border-radius: 4px;
    }
    @media (max-width: 600px) {
      .sidebar {
        display: none;
      }
      main {
        padding: 24px 16px;
      }
      h1 {
        font-size: 28px;
        line-height: 36px;
      }
    }
  </style>
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
      if (target) return location.replace(target);
      // Not a route: the links start at the base path the build or the server wrote into the page.
      var base = document.querySelector('meta[name="${referenceBaseMeta}"]').getAttribute("content") || "/";
      document.addEventListener("DOMContentLoaded", function () {
        document.querySelectorAll("a[data-to]").forEach(function (anchor) {
          anchor.setAttribute("href", base + (anchor.getAttribute("data-to") === "search" ? "?search" : ""));
        });
      });
    })();
  </script>
</head>
<body>
  <div class="layout">
    <nav class="sidebar" aria-label="Contents"><a class="site" data-to="home">Bot Conversation Service</a></nav>
    <main>
      <h1>Page not found</h1>
      <p>No page of the Bot Conversation Service API reference has this address.</p>
      <p>Start from the reference's home page, or search it for an operation, a model or a field (<kbd>Ctrl</kbd> <kbd>K</kbd> on any page).</p>
      <ul class="links">
        <li><a data-to="home">Home page of the reference</a></li>
        <li><a data-to="search">Search the reference</a></li>
      </ul>
    </main>
  </div>
</body>
</html>
`;
}
