// The 30-second wait after a mail was sent (email codes, password resets): the button is
// disabled and shows the seconds left, then comes back with its own label.
const running = new WeakSet<HTMLElement>();

export function startCountdown(button: HTMLButtonElement, seconds: number): void {
  if (running.has(button)) return;
  running.add(button);
  const label = button.textContent ?? "";
  const template = button.dataset.countdownText ?? "{{seconds}}";
  let left = seconds;
  button.disabled = true;
  button.textContent = template.replace("{{seconds}}", String(left));
  const timer = setInterval(() => {
    left -= 1;
    if (left > 0) {
      button.textContent = template.replace("{{seconds}}", String(left));
      return;
    }
    clearInterval(timer);
    running.delete(button);
    button.disabled = false;
    button.textContent = label;
  }, 1000);
}

export function isCountingDown(button: HTMLElement): boolean {
  return running.has(button);
}
