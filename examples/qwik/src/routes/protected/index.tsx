import { component$ } from "@builder.io/qwik";
import { useSession } from "../plugin@auth";

export default component$(() => {
  const session = useSession();
  return (
    <main>
      <h1>Protected</h1>
      <p data-testid="protected-user">{session.value?.user?.name}</p>
    </main>
  );
});
