// Version strings. The product version follows package.json; the console's credit line shows the
// version of the API surface we are compatible with, as the specification asks.
import packageJson from "../package.json" with { type: "json" };

export const productVersion: string = packageJson.version;
export const compatibleVersion = "0.4.8.5.2";
