import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNEL, type IpcAnswer } from '../src-main/ipc/channel.ts';
import type { SilodeskBridge } from './api.ts';

// Only this function crosses into the page: never ipcRenderer itself, so the page
// cannot pick another channel or listen to anything.
const bridge: SilodeskBridge = {
  call: (name: string, input: unknown, companyId?: string): Promise<IpcAnswer> =>
    ipcRenderer.invoke(IPC_CHANNEL, { name, input, ...(typeof companyId === 'string' ? { company_id: companyId } : {}) }),
};

contextBridge.exposeInMainWorld('silodesk', bridge);
