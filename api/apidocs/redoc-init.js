// Starts ReDoc on the OpenAPI document the page names. A file, not an inline script: the page's
// Content-Security-Policy runs the API's own script files only. ReDoc puts the page's nonce on the <style>
// elements it writes, which the policy admits by that nonce.
"use strict";
const root = document.getElementById("redoc");
Redoc.init(root.dataset.openapi, {nonce: root.dataset.nonce}, root);
