// Small daisyUI form pieces shared by console forms.
export function TextField(props: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  placeholder?: string;
  autocomplete?: string;
  required?: boolean;
  readonly?: boolean;
  disabled?: boolean;
  maxlength?: number;
  /** The keyboard phones show (e.g. numeric for one-time codes). */
  inputmode?: "numeric" | "text" | "email";
}) {
  return (
    <label class="form-control w-full">
      <span class="label-text mb-1 block text-sm" safe>
        {props.label}
      </span>
      <input
        class="input input-bordered w-full"
        name={props.name}
        type={props.type ?? "text"}
        value={props.value}
        placeholder={props.placeholder}
        autocomplete={props.autocomplete}
        required={props.required}
        readonly={props.readonly}
        disabled={props.disabled}
        maxlength={props.maxlength}
        inputmode={props.inputmode}
      />
    </label>
  );
}
