// Every auth action (/auth/signin, /auth/callback/:provider, /auth/session, …): GET requests reach
// the loader, POST requests the action.
export { action, loader } from "../auth.server";
