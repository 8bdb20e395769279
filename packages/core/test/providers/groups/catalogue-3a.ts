/** Catalogue part 2, group 3a: see ./types.ts. */
import type { ProviderGroup } from "./types.js";

export const group3a: ProviderGroup = {
  pairs: [],
  differences: [],
  factories: [],
};
