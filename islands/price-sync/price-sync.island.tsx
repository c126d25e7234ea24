// Browser entry of the price sync (see price-sync.tsx).
import { mountIsland } from "../hydrate.ts";
import { priceSyncIsland } from "./price-sync.tsx";

mountIsland(priceSyncIsland);
