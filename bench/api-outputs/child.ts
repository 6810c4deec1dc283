// One cold build in a fresh process, as `svc build` runs it: check, generate, write. Argument 1
// is the project, 2 the output folder, 3 `with` or `without` the API outputs. Prints the
// milliseconds from process start to the files written, and what the outputs weigh.
import { performance } from "node:perf_hooks";
import { build, writeOutputFiles } from "../../compiler/index.js";

const [project, out, mode] = process.argv.slice(2);
const result = await build({ mode: "project", dir: project }, { apiOutputs: mode === "with" });
if (result.files.length === 0) throw new Error(`the build of ${project} failed`);
writeOutputFiles(out, result.files);
const size = (path: string) => Buffer.byteLength(result.files.find((f) => f.path === path)?.contents ?? "");
process.stdout.write(JSON.stringify({ ms: performance.now(), openapi: size("openapi.json"), client: size("client.ts") }) + "\n");
