// Record a card or a phrase in the browser (issue 21, item 3), on the deck page.
// getUserMedia works on localhost or https only; elsewhere the Record buttons stay hidden and
// the page's note says to upload files. The recording (MediaRecorder: webm/ogg/mp4) is decoded
// by the browser and encoded here as a mono 16-bit WAV, which the server checks like an upload.
(function () {
  "use strict";
  var root = document.getElementById("reader-record");
  if (!root || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.MediaRecorder || !window.isSecureContext) {
    return;
  }
  var Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) { return; }

  function wav(buffer) {
    var rate = buffer.sampleRate, length = buffer.length, channels = buffer.numberOfChannels;
    var out = new DataView(new ArrayBuffer(44 + length * 2));
    function text(offset, s) { for (var i = 0; i < s.length; i++) { out.setUint8(offset + i, s.charCodeAt(i)); } }
    text(0, "RIFF"); out.setUint32(4, 36 + length * 2, true); text(8, "WAVE");
    text(12, "fmt "); out.setUint32(16, 16, true); out.setUint16(20, 1, true); out.setUint16(22, 1, true);
    out.setUint32(24, rate, true); out.setUint32(28, rate * 2, true); out.setUint16(32, 2, true); out.setUint16(34, 16, true);
    text(36, "data"); out.setUint32(40, length * 2, true);
    var data = [];
    for (var c = 0; c < channels; c++) { data.push(buffer.getChannelData(c)); }
    for (var i = 0; i < length; i++) {
      var sum = 0;
      for (var k = 0; k < channels; k++) { sum += data[k][i]; }
      var v = Math.max(-1, Math.min(1, sum / channels));
      out.setInt16(44 + i * 2, v < 0 ? v * 0x8000 : v * 0x7fff, true);
    }
    return new Blob([out.buffer], { type: "audio/wav" });
  }

  function send(form, blob, status) {
    var data = new FormData(form);
    data.set("file", blob, "recording.wav");
    status.textContent = root.dataset.msgSending;
    fetch(form.action, { method: "POST", body: data, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        status.textContent = answer.message;
        if (answer.ok) { window.location.reload(); }
      })
      .catch(function () { status.textContent = "?"; });
  }

  function record(button) {
    var form = button.closest("form"), status = form.querySelector("[data-record-status]");
    var label = button.textContent;
    navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
      var chunks = [], recorder = new MediaRecorder(stream);
      recorder.ondataavailable = function (e) { if (e.data.size) { chunks.push(e.data); } };
      recorder.onstop = function () {
        stream.getTracks().forEach(function (t) { t.stop(); });
        button.textContent = label;
        new Blob(chunks).arrayBuffer()
          .then(function (bytes) { return new Ctx().decodeAudioData(bytes); })
          .then(function (buffer) { send(form, wav(buffer), status); })
          .catch(function () { status.textContent = "?"; });
      };
      recorder.start();
      status.textContent = root.dataset.msgRecording;
      button.textContent = root.dataset.msgStop;
      button.readerStop = function () { button.readerStop = null; recorder.stop(); };
    }).catch(function () { status.textContent = root.dataset.msgDenied; });
  }

  root.querySelectorAll("[data-record]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      if (button.readerStop) { button.readerStop(); } else { record(button); }
    });
  });
})();
