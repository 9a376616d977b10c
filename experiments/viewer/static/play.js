// The play page: send a message, take a suggestion, fork the SCT. The server renders (and
// escapes) every piece of HTML inserted here.
"use strict";

function post(url, data) {
  // The server's token, which only this page holds, goes with every change it asks for.
  const token = document.getElementById("play").dataset.token;
  const headers = { "Content-Type": "application/json", "X-Cogarch-Token": token };
  return fetch(url, { method: "POST", headers, body: JSON.stringify(data || {}) });
}

function busy(text) {
  document.getElementById("status").textContent = text;
  for (const b of document.querySelectorAll("#play button")) b.disabled = Boolean(text);
}

async function insert(where, response) {
  const html = await response.text();
  document.getElementById(where).insertAdjacentHTML("beforeend", html);
  return response.ok;
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("play");
  const box = document.getElementById("message");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    busy("the agent is answering…");
    try {
      if (await insert("dialogue", await post("/send", { text: box.value }))) {
        box.value = (await (await post("/suggest")).json()).text;
      }
    } finally {
      busy("");
    }
  });
  document.getElementById("suggest").addEventListener("click", async () => {
    const data = await (await post("/suggest")).json();
    box.value = data.text;
  });
  document.getElementById("fork").addEventListener("click", async () => {
    busy("forking: the branches are answering…");
    try {
      await insert("forks", await post("/fork"));
    } finally {
      busy("");
    }
  });
  document.getElementById("new").addEventListener("click", async () => {
    await post("/new");
    window.location.reload();
  });
});
