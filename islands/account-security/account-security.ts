// The passkey and TOTP script's one declaration (island-definition.ts): rendered by the markup
// that needs it (the sign-in page's passkey buttons, the two-factor and passkey cards), its
// script is account-security.island.tsx.
import { defineScriptIsland } from "../island-definition.ts";

export const accountSecurityIsland = defineScriptIsland("account-security");
