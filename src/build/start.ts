// `npm start`: rebuild the console assets if any source changed since the last build, then serve.
import { buildAssetsIfStale } from "./build-assets.ts";

if (await buildAssetsIfStale()) console.log("console assets rebuilt");
const { main } = await import("../main.ts");
await main();
