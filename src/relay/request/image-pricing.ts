// Images are priced per picture (new-api relay-image): the model's price per image (or 0.0025
// dollars x its ratio), times a size factor, a quality factor and the number of pictures. The
// sizes DALL·E models accept are checked before anything is reserved.
import { AppError } from "../../errors/app-error.ts";
import type { ModelPrice } from "../../services/billing/model-prices.ts";
import type { ParsedCall } from "./read-call.ts";

const sizeFactors: Record<string, number> = {
  "256x256": 0.4,
  "512x512": 0.45,
  "1024x1024": 1,
  "1024x1792": 2,
  "1792x1024": 2,
};

const allowedSizes: Record<string, string[]> = {
  "dall-e-2": ["256x256", "512x512", "1024x1024"],
  "dall-e-3": ["1024x1024", "1024x1792", "1792x1024"],
};

export type ImageCharge = { pricePerImage: ModelPrice; units: number; note: string };

function field(call: ParsedCall, name: string): unknown {
  return call.json ? call.json[name] : (call.form?.get(name) ?? undefined);
}

export function imageCharge(call: ParsedCall, price: ModelPrice): ImageCharge {
  const size = String(field(call, "size") ?? "1024x1024");
  const quality = String(field(call, "quality") ?? "standard");
  const count = Number(field(call, "n") ?? 1);
  if (size.includes("×")) throw new AppError("invalid", "图片尺寸无效：{{size}}", { size }, { code: "invalid_request" });
  const allowed = allowedSizes[call.model];
  if (allowed && !allowed.includes(size)) throw new AppError("invalid", "图片尺寸无效：{{size}}", { size }, { code: "invalid_request" });
  if (!Number.isInteger(count) || count < 1 || count > 10) {
    throw new AppError("invalid", "图片数量无效：{{n}}", { n: String(field(call, "n")) }, { code: "invalid_request" });
  }
  const sizeFactor = sizeFactors[size] ?? 1;
  const wide = size === "1024x1792" || size === "1792x1024";
  const qualityFactor = call.model === "dall-e-3" && quality === "hd" ? (wide ? 1.5 : 2) : 1;
  const pricePerImage: ModelPrice = price.kind === "fixed" ? price : { kind: "fixed", price: 0.0025 * price.modelRatio };
  return { pricePerImage, units: count * sizeFactor * qualityFactor, note: `大小 ${size}, 品质 ${quality}` }; // i18n-exempt: stored log text
}
