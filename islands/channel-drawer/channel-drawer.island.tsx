// Browser entry of the channel drawer island (see channel-drawer.tsx).
import { mountIsland } from "../hydrate.ts";
import { channelDrawerIsland } from "./channel-drawer.tsx";

mountIsland(channelDrawerIsland);
