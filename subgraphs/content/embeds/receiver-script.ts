// The script an embed carries for the page it is pasted into (written here; WordPress ships its own
// wp-embed.js with the same protocol). An embedded page posts {secret, message, value}; the host
// page accepts only messages from the frame carrying that secret: "height" resizes the frame
// (200–1000 px), "link" follows a link of the frame's own host when the frame has focus. On load
// the fallback blockquotes give way and each frame is told "ready".
export const EMBED_RECEIVER_SCRIPT = [
  "/*! oEmbed receiver */",
  "(function(w,d){\"use strict\";if(!d.querySelector||!w.addEventListener||w.wp&&w.wp.receiveEmbedMessage)return;w.wp=w.wp||{};",
  "w.wp.receiveEmbedMessage=function(e){var m=e.data;if(!m||!m.secret||/[^a-zA-Z0-9]/.test(m.secret))return;",
  "var qs=d.querySelectorAll('blockquote[data-secret=\"'+m.secret+'\"]'),fs=d.querySelectorAll('iframe[data-secret=\"'+m.secret+'\"]'),i,f,h,a,b;",
  "for(i=0;i<qs.length;i++)qs[i].style.display=\"none\";",
  "for(i=0;i<fs.length;i++){f=fs[i];if(e.source!==f.contentWindow)continue;f.removeAttribute(\"style\");",
  "if(m.message===\"height\"){h=parseInt(m.value,10);f.height=Math.min(1000,Math.max(200,h||0));}",
  "if(m.message===\"link\"){a=d.createElement(\"a\");b=d.createElement(\"a\");a.href=f.getAttribute(\"src\");b.href=m.value;",
  "if(/^https?:$/i.test(b.protocol)&&b.host===a.host&&d.activeElement===f)w.top.location.href=m.value;}}};",
  "w.addEventListener(\"message\",w.wp.receiveEmbedMessage,false);",
  "function ready(){var fs=d.querySelectorAll(\"iframe.wp-embedded-content\"),i,s;for(i=0;i<fs.length;i++){s=fs[i].getAttribute(\"data-secret\");",
  "if(!s){s=Math.random().toString(36).slice(2,12);fs[i].src+=\"#?secret=\"+s;fs[i].setAttribute(\"data-secret\",s);}",
  "fs[i].contentWindow.postMessage({message:\"ready\",secret:s},\"*\");}}",
  "d.addEventListener(\"DOMContentLoaded\",ready,false);w.addEventListener(\"load\",ready,false);})(window,document);",
].join("");
