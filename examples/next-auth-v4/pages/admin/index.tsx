// Protected by middleware.ts: admins only.
export default function Admin() {
  return <p data-testid="admin">Admin area</p>;
}
