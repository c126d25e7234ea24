// The centred card that holds a single form page: sign-in, registration, password reset, user
// editing. `wide` for forms with two columns.
export function FormCard(props: { title: string; wide?: boolean; children?: JSX.Element | JSX.Element[] | string }) {
  return (
    <div class="flex justify-center py-8">
      <div class={`card bg-base-100 w-full shadow-sm ${props.wide ? "max-w-2xl" : "max-w-md"}`}>
        <div class="card-body gap-4">
          <h1 class="card-title text-2xl" safe>
            {props.title}
          </h1>
          {/* Forms rendered by our own components, which escape what they show. */}
          {props.children as "safe"}
        </div>
      </div>
    </div>
  );
}
