// Prints the JSON Schema of each built-in tool's input (`{ "<tool name>": <schema>, … }`), made by toChatToolSpec. esbuild.mjs
// bundles and runs this, and builds the result into the CLI (see src/runtime/tools/registry.ts).
import { createCoreTools, toChatToolSpec } from '../src/runtime/tools/registry';

process.stdout.write(JSON.stringify(Object.fromEntries(createCoreTools({ rgPath: null }).map((tool) => [tool.name, toChatToolSpec(tool).parameters]))));
