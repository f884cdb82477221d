// Lint rules for the whole project: typescript-eslint with type information for the
// TypeScript sources and tests, the plain recommended set for the JavaScript files (the
// browser UI, scripts, bin/, test support). Formatting is Prettier's (npm run format).
const js = require("@eslint/js");
const tseslint = require("typescript-eslint");
const globals = require("globals");

// `x as never` and `x as unknown as T` switch the type checker off for one value. The few
// that stay are listed, with the reason for each, in docs/architecture.md ("Type escapes")
// and carry an eslint-disable-next-line comment that names it.
const typeEscapes = [
  {
    selector: "TSAsExpression[typeAnnotation.type='TSNeverKeyword']",
    message: "`as never` hides a type error; fix the types (or list it in docs/architecture.md, Type escapes).",
  },
  {
    selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
    message: "`as unknown as` hides a type error; fix the types (or list it in docs/architecture.md, Type escapes).",
  },
];

module.exports = tseslint.config(
  { ignores: ["dist/", "generated/", "coverage/", "data/", "node_modules/"] },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  {
    files: ["**/*.ts"],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: __dirname },
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "no-restricted-syntax": ["error", ...typeEscapes],
      // An async function that does not await is kept on purpose where it implements a
      // Promise-returning interface: a throw inside it becomes a rejection, not a sync throw.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // A test reads HTTP bodies (supertest's `any`) and JSON it parsed, and asserts on them;
    // the assertion is the type check. Explicit `any` stays an error in tests too.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.js"],
    ignores: ["ui/**"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
  {
    // the web UI's modules (server/ui.ts loads app.js with type="module"); reference.js,
    // beside Swagger UI's bundle, is a classic script
    files: ["ui/**/*.js"],
    ignores: ["ui/reference.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["ui/reference.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
);
