// Browser entry of the channel drawer island (see channel-drawer.tsx).
import { mountIsland } from "../hydrate.ts";
import { ChannelDrawer } from "./channel-drawer.tsx";

mountIsland("channel-drawer", ChannelDrawer);
