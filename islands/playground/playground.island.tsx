// Browser entry of the playground island (see playground.tsx).
import { mountIsland } from "../hydrate.ts";
import { Playground } from "./playground.tsx";

mountIsland("playground", Playground);
