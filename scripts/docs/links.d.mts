/** Declarations of links.mjs, for the tests that import it. */
export interface LinkProblem {
  /** The page holding the link, relative to the site folder. */
  page: string;
  url: string;
  problem: string;
}

export declare function checkSite(dist?: string): {
  problems: LinkProblem[];
  pages: number;
  external: number;
};
