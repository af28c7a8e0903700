// The printable round's "Imprimir" button (no inline script: the CSP forbids it).
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("[data-print]")) window.print();
});
