// "/playground": the chat playground island, given the groups the user may pick and the models
// they can call; replies stream through /pg/chat/completions, billed to the user.
import { modelsForUserGroup } from "../../services/channels/group-models.ts";
import { ownGroupDescription, usableGroupsOf } from "../../services/groups/user-groups.ts";
import { Island } from "../island.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";
import { Playground } from "../../../islands/playground/playground.tsx";

export async function playgroundPage(context: PageContext): Promise<Response> {
  const { t, user } = context;
  const usable = usableGroupsOf(user!.group);
  const groups = Object.fromEntries(Object.entries(usable).map(([name, description]) => [name, description === ownGroupDescription ? t(ownGroupDescription) : description]));
  const models = await modelsForUserGroup(user!.group);
  return renderPage(
    context,
    { title: t("操练场"), islands: ["playground"] },
    <Island name="playground" component={Playground} props={{ language: context.language, groups, defaultGroup: user!.group, models }} />,
  );
}
