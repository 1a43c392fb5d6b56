// Starts Swagger UI on the OpenAPI document the page names. A file, not an inline script: the page's
// Content-Security-Policy runs the API's own script files only.
"use strict";
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.openapi,
  domNode: root,
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null, // the default sends the document to an outside validator
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
