/**
 * The layers of switchdesk and the one way imports may run (docs/architecture.md):
 *
 *   server -> handlers -> app -> domain / drivers / db
 *
 * with model/ (the shapes domain, drivers and lab share), mib/ (OID constants and
 * PortList bitmaps) and generated/ (types from the spec) below everything. `npm test`
 * runs this check (test/unit/layers.test.ts); a backward import fails it. Every allowed
 * exception is a rule's `pathNot` or its own rule below, with the reason beside it.
 */
const layer = (name) => `^${name}/`;

/** what each layer may import besides itself */
const allowed = {
  model: [],
  mib: [],
  generated: [],
  domain: ["model", "generated"],
  drivers: ["model", "mib"],
  db: [],
  // the lab imports production code only for the shared shapes and the MIB constants
  lab: ["model", "mib"],
  app: ["domain", "drivers", "db", "model", "mib", "generated"],
  handlers: ["app", "domain", "model", "generated"],
  // exception: the shell starts the lab (the demo on an empty inventory, `switchdesk lab`)
  server: ["handlers", "app", "domain", "model", "generated", "lab"],
};

const layers = Object.keys(allowed);

module.exports = {
  forbidden: [
    ...layers.map((from) => ({
      name: `${from}-imports-one-way`,
      comment: `${from}/ may import only ${[from, ...allowed[from]].join(", ")}/ (and packages)`,
      severity: "error",
      from: { path: layer(from) },
      to: {
        path: `^(${layers.join("|")})/`,
        pathNot: `^(${[from, ...allowed[from]].join("|")})/`,
      },
    })),
    {
      name: "no-circular",
      comment: "files that import each other in a loop make the order of the layers meaningless",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "production-code-not-from-tests",
      comment: "test/ and bench/ use the product; the product never imports them",
      severity: "error",
      from: { path: `^(${layers.join("|")})/` },
      to: { path: "^(test|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] },
  },
};
