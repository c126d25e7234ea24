// Browser entry of the wallet island (see wallet.tsx).
import { mountIsland } from "../hydrate.ts";
import { walletIsland } from "./wallet.tsx";

mountIsland(walletIsland);
