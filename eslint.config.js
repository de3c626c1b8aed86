// ESLint (flat config, pinned in package.json / package-lock.json): `make lint` runs it over
// the page scripts (static/js, and the apps' own in */static), their node unit tests (tests/js)
// and this file. The page scripts are classic scripts (script-src 'self', no modules) with the
// browser's globals; the pure ones (outbox.js, reader-sequence.js) also export themselves to
// node (`module`).
"use strict";
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["node_modules/**", "staticfiles/**", ".venv/**", "var/**"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js", "*/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: { ...globals.browser, module: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-shadow": "error",
      "no-var": "off",
    },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: { ...globals.node } },
    rules: { eqeqeq: ["error", "always"] },
  },
];
