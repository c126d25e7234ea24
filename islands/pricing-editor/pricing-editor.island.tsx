// Browser entry of the visual pricing editor (see pricing-editor.tsx).
import { mountIsland } from "../hydrate.ts";
import { PricingEditor } from "./pricing-editor.tsx";

mountIsland("pricing-editor", PricingEditor);
