// The interactive reference: Swagger UI on /api/schema/; "Try it out" sends the session's
// CSRF token (from the csrftoken cookie) with every request, as the web UI does.
const csrf = (document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")) || "").slice("csrftoken=".length);
window.SwaggerUIBundle({
  url: "/api/schema/",
  dom_id: "#swagger-ui",
  deepLinking: true,
  requestInterceptor: (req) => {
    req.headers["X-CSRFToken"] = decodeURIComponent(csrf);
    req.headers.Accept = req.headers.Accept || "application/json";
    return req;
  },
});
