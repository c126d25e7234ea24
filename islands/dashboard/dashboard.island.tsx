// Browser entry of the dashboard island (see dashboard.tsx).
import { mountIsland } from "../hydrate.ts";
import { Dashboard } from "./dashboard.tsx";

mountIsland("dashboard", Dashboard);
