// Browser entry of the wallet island (see wallet.tsx).
import { mountIsland } from "../hydrate.ts";
import { Wallet } from "./wallet.tsx";

mountIsland("wallet", Wallet);
