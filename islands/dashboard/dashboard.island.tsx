// Browser entry of the dashboard island (see dashboard.tsx). echarts is handed in here, the one
// place only browsers load, and stays a separate chunk loaded when the first chart is drawn.
import { mountIsland } from "../hydrate.ts";
import { dashboardIsland, provideChartLibrary } from "./dashboard.tsx";

provideChartLibrary(() => import("./echarts-setup.ts"));
mountIsland(dashboardIsland);
