/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // As create-next-app writes it today. Pages that read the session stream it in behind a
  // <Suspense> boundary (see app/page.tsx); with these two lines removed the app works unchanged.
  cacheComponents: true,
  partialPrefetching: true,
};

export default nextConfig;
