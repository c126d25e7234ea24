// Browser entry of the visual pricing editor (see pricing-editor.tsx).
import { mountIsland } from "../hydrate.ts";
import { pricingEditorIsland } from "./pricing-editor.tsx";

mountIsland(pricingEditorIsland);
