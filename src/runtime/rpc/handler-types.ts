import type { MethodName, ParamsOf, ResultOf } from '../../protocol';

/** One handler per protocol method, typed by the method's params and result (feature modules build their share). */
export type Handlers = { [M in MethodName]: (params: ParamsOf<M>) => Promise<ResultOf<M>> | ResultOf<M> };
