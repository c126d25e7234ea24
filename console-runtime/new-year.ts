// The 1 January easter egg: a greeting button in the top bar that sets off a few fireworks.
export function installNewYear(): void {
  const today = new Date();
  const button = document.getElementById("new-year");
  if (!button || today.getMonth() !== 0 || today.getDate() !== 1) return;
  button.classList.remove("hidden");
  button.addEventListener("click", () => {
    for (let index = 0; index < 24; index++) {
      const spark = document.createElement("span");
      spark.textContent = ["🎆", "🎇", "✨", "🧨"][index % 4]!;
      spark.style.cssText = `position:fixed;left:${Math.random() * 100}vw;top:${60 + Math.random() * 40}vh;font-size:2rem;z-index:60;pointer-events:none;transition:transform 1.6s ease-out,opacity 1.6s ease-out`;
      document.body.append(spark);
      requestAnimationFrame(() => {
        spark.style.transform = `translateY(-${40 + Math.random() * 40}vh) scale(1.6)`;
        spark.style.opacity = "0";
      });
      setTimeout(() => spark.remove(), 1700);
    }
  });
}
