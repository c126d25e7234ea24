// The parts of echarts the dashboard uses, registered once. Loaded by the island on demand (a
// separate chunk), so pages without charts never load the charting library; only the island's
// browser entry names this file, so the server's bundle does not carry it either.
import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export { echarts };
