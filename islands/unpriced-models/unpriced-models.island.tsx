// Browser entry of the unpriced-models view (see unpriced-models.tsx).
import { mountIsland } from "../hydrate.ts";
import { unpricedModelsIsland } from "./unpriced-models.tsx";

mountIsland(unpricedModelsIsland);
