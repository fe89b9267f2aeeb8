/* bench/gpu/launch_streams.c — does the stream change what one cuLaunchKernel costs the host?
 * Standalone (libcuda through dlopen, an empty kernel of 4 parameters, 128 threads): for the
 * legacy NULL stream, the per-thread stream and two created streams, the host time per
 * launch in chunks of 250 (synchronization between chunks left out) and over 20000 launches
 * back to back; each twice. Build and run on a GPU machine:
 *   gcc -O2 -o /tmp/launch_streams bench/gpu/launch_streams.c -ldl && /tmp/launch_streams */
#include <dlfcn.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
typedef int CUresult; typedef void *P;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static const char *ptx =
".version 8.0\n.target sm_90a\n.address_size 64\n"
".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n{ ret; }\n";
int main(void){
  void *h=dlopen("libcuda.so.1",RTLD_NOW);
  CUresult (*cuInit)(unsigned)=dlsym(h,"cuInit");
  CUresult (*cuDeviceGet)(int*,int)=dlsym(h,"cuDeviceGet");
  CUresult (*cuDevicePrimaryCtxRetain)(P*,int)=dlsym(h,"cuDevicePrimaryCtxRetain");
  CUresult (*cuCtxSetCurrent)(P)=dlsym(h,"cuCtxSetCurrent");
  CUresult (*cuModuleLoadData)(P*,const void*)=dlsym(h,"cuModuleLoadData");
  CUresult (*cuModuleGetFunction)(P*,P,const char*)=dlsym(h,"cuModuleGetFunction");
  CUresult (*cuLaunchKernel)(P,unsigned,unsigned,unsigned,unsigned,unsigned,unsigned,unsigned,P,void**,void**)=dlsym(h,"cuLaunchKernel");
  CUresult (*cuCtxSynchronize)(void)=dlsym(h,"cuCtxSynchronize");
  CUresult (*cuStreamCreate)(P*,unsigned)=dlsym(h,"cuStreamCreate");
  int dev; P ctx,mod,fn; cuInit(0); cuDeviceGet(&dev,0); cuDevicePrimaryCtxRetain(&ctx,dev); cuCtxSetCurrent(ctx);
  if(cuModuleLoadData(&mod,ptx)||cuModuleGetFunction(&fn,mod,"k")){puts("load failed");return 1;}
  uint64_t a=0,b=0,c=0; uint32_t n=0; void *params[]={&a,&b,&c,&n};
  P s_nb,s_def; cuStreamCreate(&s_nb,1); cuStreamCreate(&s_def,0);
  struct {const char*name; P s;} S[]={{"NULL(legacy)",0},{"per-thread(0x2)",(P)2},{"created,non-blocking",s_nb},{"created,default",s_def}};
  for(int rep=0;rep<2;rep++) for(int i=0;i<4;i++){
    double host=0; for(int w=0;w<500;w++) cuLaunchKernel(fn,1,1,1,128,1,1,0,S[i].s,params,0); cuCtxSynchronize();
    for(int ch=0;ch<80;ch++){ cuCtxSynchronize(); double t0=now(); for(int j=0;j<250;j++) cuLaunchKernel(fn,1,1,1,128,1,1,0,S[i].s,params,0); host+=now()-t0;}
    cuCtxSynchronize();
    double t0=now(); for(int j=0;j<20000;j++) cuLaunchKernel(fn,1,1,1,128,1,1,0,S[i].s,params,0); cuCtxSynchronize(); double sus=now()-t0;
    printf("stream %-22s host %.3f us/launch, sustained %.3f us/launch\n",S[i].name,host/20000*1e6,sus/20000*1e6);
  }
  return 0;
}
