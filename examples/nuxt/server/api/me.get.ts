// The signed-in user for API clients; getServerSession is auto-imported by @tessera/nuxt.
export default defineEventHandler(async (event) => {
  const session = await getServerSession(event);
  if (!session?.user) throw createError({ statusCode: 401, statusMessage: "Sign in first" });
  return { name: session.user.name, email: session.user.email };
});
