// svc dev: show the new build when the server has swapped it in.
(() => {
  const events = new EventSource("/__svc/dev/events");
  events.addEventListener("reload", (event) => {
    let main = false;
    try {
      main = JSON.parse(event.data).main === true;
    } catch {}
    const up = window.up;
    if (main && up && typeof up.reload === "function" && !document.getElementById("svc-dev-overlay")) {
      up.reload({ navigate: false }).catch(() => location.reload());
    } else {
      location.reload();
    }
  });
})();
