/** Catalogue part 2, group 3b: see ./types.ts. */
import type { ProviderGroup } from "./types.js";

export const group3b: ProviderGroup = {
  pairs: [],
  differences: [],
  factories: [],
};
