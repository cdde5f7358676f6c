import {
  forecasting,
  forging,
  imaging,
  parsing,
  reading,
  rehearsal
} from "./chunks/chunk-BISE4HFW.js";
import "./chunks/chunk-3FLKLLHA.js";
export {
  forecasting,
  forging,
  imaging,
  parsing,
  reading,
  rehearsal
};
//# sourceMappingURL=pool-worker.js.map
