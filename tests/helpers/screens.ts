// The screens browser suites check pages at: a desktop (1366x800) and a phone (390x844), each in
// Chinese and English.
export type Screen = "desktop" | "phone";
export type Language = "zh" | "en";
export type Combo = { screen: Screen; language: Language };

export const viewports: Record<Screen, { width: number; height: number }> = {
  desktop: { width: 1366, height: 800 },
  phone: { width: 390, height: 844 },
};

export const allCombos: Combo[] = [
  { screen: "desktop", language: "zh" },
  { screen: "phone", language: "en" },
  { screen: "desktop", language: "en" },
  { screen: "phone", language: "zh" },
];

/** Two combos that still cover both sizes and both languages. */
export const crossCombos: Combo[] = allCombos.slice(0, 2);
export const otherCrossCombos: Combo[] = allCombos.slice(2);

export const comboName = (combo: Combo) => `${combo.screen}-${combo.language}`;
