// Browser entry of the playground island (see playground.tsx).
import { mountIsland } from "../hydrate.ts";
import { playgroundIsland } from "./playground.tsx";

mountIsland(playgroundIsland);
