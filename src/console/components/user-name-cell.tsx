// A user in a table that stores only the id (drawings, tasks, redemptions): the name, with the
// id beside it; the bare id when the name is not known.
export function UserNameCell(props: { id: number; names: Map<number, string> }) {
  const name = props.names.get(props.id);
  if (name === undefined) return <span safe>{String(props.id)}</span>;
  return (
    <span class="whitespace-nowrap">
      <span safe>{name}</span> <span class="text-base-content/50 text-xs" safe>{`#${props.id}`}</span>
    </span>
  );
}
