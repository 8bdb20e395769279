// react-dom ships no types of its own and @types/react-dom is not a dependency: the one function
// the render test calls, as react-dom/server exports it.
declare module "react-dom/server" {
  export function renderToString(element: import("react").ReactNode): string;
}
