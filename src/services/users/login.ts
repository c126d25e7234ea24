// Password sign-in. Banned, non-enableable and deleted accounts cannot sign in,
// and every failure gives the same message so it does not tell which part was wrong. Once the
// password is right, each further step of the sign-in runs in turn (the setup code of a fresh
// gateway: onboarding/setup-code.ts).
import { AppError } from "../../errors/app-error.ts";
import { checkSetupCode, type SignInOrigin } from "../onboarding/setup-code.ts";
import { optionBool } from "../options/options.ts";
import { parseInput } from "../parse-input.ts";
import { verifyPassword } from "./passwords.ts";
import { UserStatus } from "./roles.ts";
import { findLiveUserByLogin } from "./user-queries.ts";
import { loginInput } from "./user-schemas.ts";
import type { UserRow } from "./user-view.ts";

export const wrongCredentials = "用户名或密码错误，或用户已被封禁";

export async function loginWithPassword(body: unknown, origin: SignInOrigin): Promise<UserRow> {
  if (!optionBool("PasswordLoginEnabled")) throw new AppError("forbidden", "管理员关闭了密码登录");
  const input = parseInput(loginInput, body);
  const user = await findLiveUserByLogin(input.username);
  const passwordMatches = await verifyPassword(input.password, user?.password);
  if (!user || !passwordMatches || user.status !== UserStatus.enabled) {
    throw new AppError("unauthorized", wrongCredentials, undefined, { httpStatus: 200 });
  }
  await checkSetupCode(user, input.setup_code, origin);
  return user;
}
