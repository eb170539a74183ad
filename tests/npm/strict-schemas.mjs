// Compiles every tool schema of the definitions given (JSON files, as
// `tabwright tools --format …` prints them) with ajv in strict mode, draft
// 2020-12: what strict validators in MCP hosts do. Prints one line per
// schema that does not compile and exits non-zero if any.
import Ajv2020 from "ajv/dist/2020.js";
import fs from "node:fs";

let failed = 0;
let compiled = 0;
for (const file of process.argv.slice(2)) {
  for (const tool of JSON.parse(fs.readFileSync(file, "utf8"))) {
    const schema = tool.inputSchema ?? tool.input_schema ?? tool.parameters ?? tool.function?.parameters;
    const name = tool.name ?? tool.function?.name;
    try {
      new Ajv2020({ strict: true, allErrors: true }).compile(schema);
      compiled++;
    } catch (error) {
      failed++;
      console.log(`${file}: ${name}: ${error.message}`);
    }
  }
}
console.log(`${compiled} schemas compiled, ${failed} did not`);
process.exit(failed ? 1 : 0);
