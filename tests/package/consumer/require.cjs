// CommonJS users: Node >= 20.19 loads the ES module with require().
const portico = require("portico");
const { serve } = require("portico/node");
if (typeof portico.createApp !== "function" || typeof serve !== "function") process.exit(1);
console.log("REQUIRED", Object.keys(portico).length);
