import type { ReactNode } from "react";

export const metadata = { title: "Tessera + Next.js" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "2rem auto" }}>
        <nav>
          <a href="/">Home</a> · <a href="/protected">Protected</a> · <a href="/client">Client</a>
        </nav>
        {children}
      </body>
    </html>
  );
}
