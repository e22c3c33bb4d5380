// Sandboxed preload: bundled to one CommonJS file (dist/electron/preload/index.cjs) because a
// sandboxed preload may require only `electron`. It exposes the typed bridge, never ipcRenderer.
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_NAME, createBridge, type IpcLike } from './api.js';

contextBridge.exposeInMainWorld(BRIDGE_NAME, createBridge(ipcRenderer as unknown as IpcLike));
